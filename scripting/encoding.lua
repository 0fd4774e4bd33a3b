-- encoding.lua — houserules.encoding(): a ruleset's action kinds and phases, by name.
--
-- A rules script registers each kind of action it offers (its name, its arguments, its text form) and each
-- phase of a turn (its name); the registry gives every action its integer code and every phase its number.
-- House rules then speak of actions as records ({kind = "draw", pile = "green"}) and of phases by name, and
-- add kinds and phases of their own without picking a number (docs/writing-rules.md, "Action kinds and
-- phases by name"). Compiled into the houserules binary (scripting/CMakeLists.txt) and run in the sandbox.

local Encoding = {}
Encoding.__index = Encoding
local Kind = {}
Kind.__index = Kind

local function fail(message) error("houserules.encoding: " .. message, 3) end

--- The largest action code: actions are 32-bit integers in the kernel (engine/rules.hpp), and codes are 0 or more.
local MAX_ACTION = 2147483647

--- houserules.encoding() -> a new, empty registry. A ruleset makes one, registers its kinds and phases,
--- and publishes it as `rules.encoding` for its variants.
local function new()
  return setmetatable({ list = {}, by_name = {}, phases = {}, phase_by_name = {}, offered = {} }, Encoding)
end

--- encoding:kind{name, text, args, code, phase, legal, apply, explain} -> kind. Registers a kind of action.
---   name     a word ("draw", "mulligan"): the `kind` of its records; unique in the registry
---   args     optional list of arguments, in order, each { name = "pile", values = {...}, texts = {...} }
---            (texts: how each value reads in the action's text, default the value itself), or
---            { name = "card", cards = true }: a component number, read in texts by the component's name
---   text     the text form with {arg} for each argument ("draw {pile}"); default: the name and {args}
---   code     optional: the code of the first action of the kind (a ruleset keeping its historic codes), a
---            whole number whose codes stay in 0 .. 2^31 - 1 (refused at load otherwise);
---            left out, the registry allocates the next free hundred
---   phase, legal, apply, explain: for a kind a house rule adds to a ruleset that offers them (as Lost
---            Cities does, rules.actions and rules.apply): the phase name it is offered in; legal(game, seat,
---            record) -> boolean, whether to offer it now (called for each value of its arguments); apply(game,
---            seat, record) what it does; explain, a sentence (or function(game, seat) -> sentence) saying
---            when it is legal, for `explain` to show when it is not.
--- The codes of a kind are code .. code + (product of the argument counts) - 1. Errors name the problem.
function Encoding:kind(spec)
  if type(spec) ~= "table" or type(spec.name) ~= "string" or not spec.name:match("^[%a_][%w_]*$") then
    fail("kind{name = ...}: the name must be a word")
  end
  if self.by_name[spec.name] then fail("a kind named '" .. spec.name .. "' is registered already") end
  local kind = setmetatable({ name = spec.name, args = {}, size = 1, phase = spec.phase, legal = spec.legal,
                              apply = spec.apply, explain = spec.explain }, Kind)
  local words = { spec.name }
  for i, arg in ipairs(spec.args or {}) do
    local values, texts = arg.values, arg.texts
    if arg.cards then
      values, texts = {}, {}
      for c, card in ipairs(houserules.components or {}) do values[c], texts[c] = c, card.name end
    end
    if type(arg.name) ~= "string" or type(values) ~= "table" or #values == 0 then
      fail("kind '" .. spec.name .. "': argument " .. i .. " needs a name and a non-empty list of values")
    end
    local index = {}
    for j, v in ipairs(values) do index[v] = j end
    kind.args[i] = { name = arg.name, values = values, texts = texts or values, index = index, stride = kind.size }
    kind.size = kind.size * #values
    words[#words + 1] = "{" .. arg.name .. "}"
  end
  kind.text = spec.text or table.concat(words, " ")
  local code = spec.code
  if code == nil then
    code = 0
    for _, other in ipairs(self.list) do code = math.max(code, other.last + 1) end
    code = (code + 99) // 100 * 100
  elseif math.type(code) ~= "integer" or code < 0 then
    fail("kind '" .. spec.name .. "': code must be a whole number from 0 (an action is 0 to " .. MAX_ACTION .. "), not "
      .. tostring(code))
  end
  if kind.size > MAX_ACTION + 1 or code > MAX_ACTION - (kind.size - 1) then
    fail("kind '" .. spec.name .. "': its " .. kind.size .. " codes from " .. code .. " go past " .. MAX_ACTION
      .. ", the largest action")
  end
  kind.first, kind.last = code, code + kind.size - 1
  for _, other in ipairs(self.list) do
    if kind.first <= other.last and other.first <= kind.last then
      fail("kind '" .. spec.name .. "' (codes " .. kind.first .. ".." .. kind.last .. ") overlaps kind '" .. other.name .. "'")
    end
  end
  self.list[#self.list + 1] = kind
  self.by_name[spec.name] = kind
  if spec.phase then
    if not spec.legal or not spec.apply then fail("kind '" .. spec.name .. "' is offered in a phase: give it legal and apply") end
    self.offered[#self.offered + 1] = kind
  end
  return kind
end

--- kind:code(value...) -> the action of this kind with these argument values (in the order of `args`).
function Kind:code(...)
  local code = self.first
  for i, arg in ipairs(self.args) do
    local v = select(i, ...)
    local j = arg.index[v]
    if not j then error("kind '" .. self.name .. "': '" .. tostring(v) .. "' is not a value of " .. arg.name, 2) end
    code = code + (j - 1) * arg.stride
  end
  return code
end

--- kind:is(action) -> boolean: whether the action is of this kind.
function Kind:is(action) return action >= self.first and action <= self.last end

--- encoding:kind_of(action) -> kind, or nil for a code no kind has.
function Encoding:kind_of(action)
  local list = self.list
  for i = 1, #list do -- a numeric loop: ipairs costs a C call a step, and this runs for every action's text
    local kind = list[i]
    if action >= kind.first and action <= kind.last then return kind end
  end
  return nil
end

--- encoding:read(action) -> record ({kind = "draw", pile = "green"}; cards are component numbers), or nil.
function Encoding:read(action)
  local kind = self:kind_of(action)
  if not kind then return nil end
  local record, offset = { kind = kind.name }, action - kind.first
  for _, arg in ipairs(kind.args) do
    record[arg.name] = arg.values[offset // arg.stride % #arg.values + 1]
  end
  return record
end

--- encoding:code(record) -> the action the record describes; an error names a missing kind or value.
function Encoding:code(record)
  local kind = self.by_name[record.kind]
  if not kind then error("houserules.encoding: no kind of action named '" .. tostring(record.kind) .. "'", 2) end
  local values = {}
  for i, arg in ipairs(kind.args) do values[i] = record[arg.name] end
  return kind:code(table.unpack(values, 1, #kind.args))
end

--- template_parts(kind) -> the kind's text form cut into parts, in order: a string for literal text, the
--- argument record for each "{arg}" that names one of its arguments ("{other}" stays literal text). Compiled
--- once per text form (again if a house rule assigns kind.text): encoding:text, asked for every legal action
--- by `houserules check` and by every parse of a typed action, then only joins the parts (no pattern match,
--- no closure per call).
local function template_parts(kind)
  if kind.parts_of == kind.text then return kind.parts end
  local parts, text, at = {}, kind.text, 1
  while true do
    local first, last, name = string.find(text, "{([%w_]+)}", at)
    if not first then break end
    local named = nil
    for _, arg in ipairs(kind.args) do
      if arg.name == name then named = arg break end
    end
    if first > at then parts[#parts + 1] = string.sub(text, at, first - 1) end
    parts[#parts + 1] = named or string.sub(text, first, last)
    at = last + 1
  end
  if at <= #text then parts[#parts + 1] = string.sub(text, at) end
  kind.parts, kind.parts_of = parts, text
  return parts
end

--- joined_text(kind, offset) -> the text of the kind's action `offset` (0-based): its text form with each
--- {arg} replaced by the text of that argument's value.
local function joined_text(kind, offset)
  local out = ""
  for _, part in ipairs(template_parts(kind)) do
    if type(part) == "string" then
      out = out .. part
    else
      out = out .. tostring(part.texts[offset // part.stride % #part.values + 1])
    end
  end
  return out
end

--- encoding:text(action) -> the action's text ("draw G"), or nil for a code no kind has. Each text is built
--- once (joined_text) and kept per kind, until a house rule assigns the kind another text form; a kind's
--- arguments and their texts are fixed when it is registered.
function Encoding:text(action)
  local kind = self:kind_of(action)
  if not kind then return nil end
  local cache = kind.texts_by_offset
  if kind.texts_of ~= kind.text then
    cache = {}
    kind.texts_by_offset, kind.texts_of = cache, kind.text
  end
  local offset = action - kind.first
  local text = cache[offset]
  if text == nil then
    text = joined_text(kind, offset)
    cache[offset] = text
  end
  return text
end

--- encoding:phase(name [, first [, last]]) -> number: registers a phase of a turn. A ruleset gives its own
--- numbers (first..last: one name for a range, as Lost Cities' draw phase, which remembers the pile just
--- discarded to); left out (a house rule's phase), the registry allocates a negative number, -1, -2 ...,
--- below every registered one, so that it never falls in a range a ruleset tests with `phase >= X`; once the
--- ruleset has declared its phases (houserules.declare), that number is named in the kernel too
--- (houserules.name_phase), so game:phase_name(), game:set_phase(name) and scenario files know it.
function Encoding:phase(name, first, last)
  if type(name) ~= "string" or not name:match("^[%a_][%w_]*$") then fail("phase(name): the name must be a word") end
  if self.phase_by_name[name] then fail("a phase named '" .. name .. "' is registered already") end
  local allocated = first == nil
  if allocated then
    first = 0
    for _, p in ipairs(self.phases) do first = math.min(first, p.first) end
    first = first - 1
  end
  local phase = { name = name, first = first, last = last or first }
  for _, p in ipairs(self.phases) do
    if phase.first <= p.last and p.first <= phase.last then fail("phase '" .. name .. "' overlaps phase '" .. p.name .. "'") end
  end
  if allocated and houserules.phases then houserules.name_phase(name, first) end
  self.phases[#self.phases + 1] = phase
  self.phase_by_name[name] = phase
  return first
end

--- encoding:phase_name(number) -> the name of the phase with that number, or nil.
function Encoding:phase_name(number)
  for _, p in ipairs(self.phases) do
    if number >= p.first and number <= p.last then return p.name end
  end
  return nil
end

--- encoding:phase_number(name) -> the (first) number of the named phase; an error for an unknown name.
function Encoding:phase_number(name)
  local p = self.phase_by_name[name]
  if not p then error("houserules.encoding: no phase named '" .. tostring(name) .. "'", 2) end
  return p.first
end

--- encoding:phase_of(game) -> the name of the phase the game is in.
function Encoding:phase_of(game) return self:phase_name(game:phase()) end

--- encoding:offer(game, out, n, seat, phase_name) -> n': appends to out[n + 1 ...] the legal actions of the
--- kinds offered in that phase (those registered with phase, legal and apply), in registration order.
function Encoding:offer(game, out, n, seat, phase_name)
  local offered = self.offered
  if offered[1] == nil then return n end -- (no kind offered: no iterator, no to-be-closed slot per call)
  for _, kind in ipairs(offered) do
    if kind.phase == phase_name then
      for code = kind.first, kind.last do
        if kind.legal(game, seat, self:read(code)) then
          n = n + 1
          out[n] = code
        end
      end
    end
  end
  return n
end

--- encoding:apply(game, action, seat) -> true when the action is of an offered kind (its apply ran).
function Encoding:apply(game, action, seat)
  local kind = self:kind_of(action)
  if not kind or not kind.apply then return false end
  kind.apply(game, seat, self:read(action))
  return true
end

--- encoding:explain(game, text, seat) -> why `text` is not legal now when its first word names an offered
--- kind (its `explain`, or "you may not <name> now"); nil otherwise.
function Encoding:explain(game, text, seat)
  local word = string.match(string.lower(text), "^%s*(%S+)")
  for _, kind in ipairs(self.offered) do
    if word == string.lower(kind.name) or word == string.lower(kind.text:match("^(%S+)")) then
      local why = kind.explain
      if type(why) == "function" then why = why(game, seat) end
      return why or ("you may not " .. kind.name .. " now")
    end
  end
  return nil
end

return new
