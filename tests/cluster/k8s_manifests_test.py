#!/usr/bin/env python3
"""k8s_manifests_test.py SOURCE-DIR — the Kubernetes example of docs/simulation.md is well-formed (issue 38):
every document of docs/simulation/k8s-*.yaml parses as YAML (Debian's python3-yaml) into a Kubernetes object
with apiVersion, kind and metadata.name; the simulation Job is an Indexed Job whose completions, parallelism
and SHARDS agree; each Job's container runs houserules and mounts the results volume its PVC claim names.
Skipped (exit 77) without python3-yaml. It checks the shape only: no cluster runs it here."""
import pathlib
import sys

try:
    import yaml
except ImportError:
    print("SKIP: python3-yaml is not installed (apt-get install python3-yaml)")
    sys.exit(77)


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


folder = pathlib.Path(sys.argv[1]) / "docs" / "simulation"
files = sorted(folder.glob("k8s-*.yaml"))
if len(files) < 2:
    fail(f"expected k8s-indexed-job.yaml and k8s-merge-job.yaml in {folder}, found {[f.name for f in files]}")
objects = {}
claims = set()
for path in files:
    try:
        documents = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
    except yaml.YAMLError as e:
        fail(f"{path.name}: not YAML: {e}")
    for doc in documents:
        for key in ("apiVersion", "kind", "metadata"):
            if key not in doc:
                fail(f"{path.name}: a document without {key}: {sorted(doc)}")
        name = doc["metadata"].get("name")
        if not name:
            fail(f"{path.name}: a {doc['kind']} without metadata.name")
        objects[(doc["kind"], name)] = (path.name, doc)
        if doc["kind"] == "PersistentVolumeClaim":
            claims.add(name)

jobs = {name: doc for (kind, name), (_, doc) in objects.items() if kind == "Job"}
for want in ("houserules-sim", "houserules-merge"):
    if want not in jobs:
        fail(f"no Job {want}: found {sorted(jobs)}")
sim = jobs["houserules-sim"]["spec"]
if sim.get("completionMode") != "Indexed":
    fail(f"houserules-sim: completionMode is {sim.get('completionMode')!r}, not Indexed")
env = {e["name"]: e.get("value") for e in sim["template"]["spec"]["containers"][0].get("env", [])}
if not (sim["completions"] == sim["parallelism"] == int(env.get("SHARDS", -1))):
    fail(f"houserules-sim: completions {sim['completions']}, parallelism {sim['parallelism']} and SHARDS "
         f"{env.get('SHARDS')} differ")
for name, job in jobs.items():
    pod = job["spec"]["template"]["spec"]
    if pod.get("restartPolicy") not in ("Never", "OnFailure"):
        fail(f"{name}: a Job's restartPolicy must be Never or OnFailure, not {pod.get('restartPolicy')!r}")
    container = pod["containers"][0]
    command = " ".join(container.get("command", []) + container.get("args", []))
    if "houserules " not in command:
        fail(f"{name}: its container does not run houserules: {command}")
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for mount in container.get("volumeMounts", []):
        volume = volumes.get(mount["name"])
        if volume is None:
            fail(f"{name}: mounts volume {mount['name']!r}, which the pod does not define")
        claim = volume.get("persistentVolumeClaim", {}).get("claimName")
        if claim and claim not in claims:
            fail(f"{name}: claims PVC {claim!r}, which no manifest defines ({sorted(claims)})")
print(f"OK: {len(objects)} Kubernetes objects in {', '.join(f.name for f in files)} are well-formed")
