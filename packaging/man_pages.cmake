# man_pages.cmake — run at build time (cmake -P) by packaging/CMakeLists.txt: writes the man page of
# `houserules` and of each of its commands (houserules-play.1, ...) into OUT_DIR with Debian's help2man, from
# the binary's own --help, so the pages always say what the built binary does.
#   cmake -DHOUSERULES=<binary> -DHELP2MAN=<help2man> -DVERSION=<x.y.z> -DOUT_DIR=<dir> -P man_pages.cmake
# The commands are read from `houserules --help` (its "SUBCOMMANDS:" list), so a new command gets its page.
foreach(var HOUSERULES HELP2MAN VERSION OUT_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_pages.cmake: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")

execute_process(COMMAND "${HOUSERULES}" --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "man_pages.cmake: '${HOUSERULES} --help' failed (${status})")
endif()
# CLI11 lists the commands under "SUBCOMMANDS:" (or "Subcommands:"), one "  name   description" a line,
# until a blank line.
string(REPLACE "\n" ";" lines "${help}")
set(in_list FALSE)
set(commands "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[Ss][Uu][Bb][Cc][Oo][Mm][Mm][Aa][Nn][Dd][Ss]:")
    set(in_list TRUE)
  elseif(in_list AND line MATCHES "^  +([a-z][a-z0-9-]*)")
    list(APPEND commands "${CMAKE_MATCH_1}")
  elseif(in_list AND NOT line MATCHES "^ ")
    set(in_list FALSE)
  endif()
endforeach()
if(NOT commands)
  message(FATAL_ERROR "man_pages.cmake: found no commands in '${HOUSERULES} --help'")
endif()

# help2man runs "<program> <help option>" through the shell; a command's page is that of a small wrapper named
# houserules-COMMAND (so the page's name, title and synopsis are the command's), which runs `houserules COMMAND`.
function(page program name description)
  execute_process(
    COMMAND "${HELP2MAN}" --no-info --no-discard-stderr --section=1 --source=houserules
            "--version-string=${VERSION}" "--name=${description}" --output=${OUT_DIR}/${name}.1 "${program}"
    RESULT_VARIABLE status ERROR_VARIABLE error)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "man_pages.cmake: help2man for ${name} failed (${status}): ${error}")
  endif()
endfunction()

page("${HOUSERULES}" houserules "play, test and simulate card and tile games whose rules are Lua scripts")
set(wrappers "${OUT_DIR}/.wrappers")
file(MAKE_DIRECTORY "${wrappers}")
foreach(command IN LISTS commands)
  # The command's one-line description, from the main --help ("  play   Play a game ...").
  set(description "houserules ${command}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^  +${command}  +(.+)$")
      string(STRIP "${CMAKE_MATCH_1}" description)
      break()
    endif()
  endforeach()
  set(wrapper "${wrappers}/houserules-${command}")
  file(WRITE "${wrapper}" "#!/bin/sh\nexec '${HOUSERULES}' ${command} \"$@\"\n")
  file(CHMOD "${wrapper}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  page("${wrapper}" houserules-${command} "${description}")
endforeach()
file(REMOVE_RECURSE "${wrappers}")
