# ctest driver for a C++ block of the documentation (see snippets.cmake): runs
# a program in an empty working directory, checks an excerpt against the file
# it quotes, or fails a block that is neither.
if(DEFINED PROGRAM)
  file(REMOVE_RECURSE ${WORK_DIR})
  file(MAKE_DIRECTORY ${WORK_DIR})
  execute_process(COMMAND ${PROGRAM} WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ORIGIN}: the program failed (${rc})")
  endif()
elseif(DEFINED EXCERPT)
  file(READ ${SOURCE} quoted)
  file(READ ${EXCERPT} excerpt)
  # Lines compared without their indentation and trailing spaces, each "\n"-delimited.
  foreach(text quoted excerpt)
    string(REGEX REPLACE "[ \t]*\n[ \t]*" "\n" ${text} "\n${${text}}\n")
  endforeach()
  while(NOT excerpt STREQUAL "\n")
    string(SUBSTRING "${excerpt}" 1 -1 excerpt)
    string(FIND "${excerpt}" "\n" end)
    string(SUBSTRING "${excerpt}" 0 ${end} line)
    string(SUBSTRING "${excerpt}" ${end} -1 excerpt)
    string(FIND "${quoted}" "\n${line}\n" found)
    if(NOT line STREQUAL "" AND found EQUAL -1)
      message(FATAL_ERROR "${ORIGIN}: the excerpt's line\n  ${line}\nis not in ${SOURCE}")
    endif()
  endwhile()
else()
  message(FATAL_ERROR "${ORIGIN}: a ```cpp block must be a program (with int main) or be marked on the line before "
                      "its fence with <!-- snippet: compile --> or <!-- snippet: excerpt <path> --> "
                      "(see docs/snippets.cmake)")
endif()
