# The C++ code blocks of README.md and docs/*.md are tests. At configure time
# each ```cpp block becomes a source file in the build tree, built with
# everything else (`make build`); editing the Markdown re-extracts them. The
# n-th block of README.md or docs/<file>.md is doc_<file>_<n>: a program's
# target and test, an excerpt's test, or a fragment's function (the fragments
# are compiled together, as target doc_fragments). A block is either
#
#   * a program (it has `int main`): built as is, then run by its test in an
#     empty working directory; it must exit with 0;
#   * marked, on the line just before its fence, with
#       <!-- snippet: compile -->        a fragment: compiled (not run) as the body of
#                                        a function doc_<file>_<n>(), after #include <acausal/acausal.hpp>,
#                                        <acausal/harness/checklists.hpp>, <acausal/harness/rigs.hpp>
#                                        and `using namespace acausal; using namespace acausal::harness;`
#                                        (local structs are fine, templates are not);
#       <!-- snippet: excerpt <path> --> a quote of the project's code: its test checks that each of
#                                        its lines is a line of <path> (from the source root),
#                                        indentation aside.
#
# Any other block fails its test. Compiler errors point into the Markdown (#line).
file(GLOB ACAUSAL_SNIPPET_DOCS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md)
list(PREPEND ACAUSAL_SNIPPET_DOCS ${CMAKE_SOURCE_DIR}/README.md)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ACAUSAL_SNIPPET_DOCS})

set(ACAUSAL_SNIPPET_PRELUDE [=[
#include <acausal/acausal.hpp>
#include <acausal/harness/checklists.hpp>
#include <acausal/harness/rigs.hpp>
using namespace acausal;
using namespace acausal::harness;
]=])

# Writes `content` to `path` only when it changed, so a re-extraction rebuilds nothing new.
function(acausal_snippet_write path content)
  file(WRITE ${path}.new "${content}")
  configure_file(${path}.new ${path} COPYONLY)
endfunction()

foreach(doc ${ACAUSAL_SNIPPET_DOCS})
  get_filename_component(stem ${doc} NAME_WE)
  file(RELATIVE_PATH where ${CMAKE_SOURCE_DIR} ${doc})
  # Plain string searches, not lists: code is full of `;` and `[`.
  file(READ ${doc} rest)
  set(rest "\n${rest}")  # so that every line, the first too, starts after a "\n"
  set(consumed 0)        # lines of the file before `rest`
  set(n 0)
  while(TRUE)
    string(FIND "${rest}" "\n```cpp\n" fence)
    if(fence EQUAL -1)
      break()
    endif()
    math(EXPR n "${n} + 1")
    string(SUBSTRING "${rest}" 0 ${fence} before)
    string(FIND "${before}" "\n" marker_start REVERSE)
    math(EXPR marker_start "${marker_start} + 1")
    string(SUBSTRING "${before}" ${marker_start} -1 marker)
    string(REGEX MATCHALL "\n" newlines "${before}\n")
    list(LENGTH newlines line)
    math(EXPR line "${consumed} + ${line}")  # the fence's line
    math(EXPR start "${fence} + 8")
    string(SUBSTRING "${rest}" ${start} -1 rest)
    string(FIND "${rest}" "\n```" end)
    if(end EQUAL -1)
      message(FATAL_ERROR "${where}:${line}: the ```cpp block has no closing fence")
    endif()
    string(SUBSTRING "${rest}" 0 ${end} block)
    string(SUBSTRING "${rest}" ${end} -1 rest)
    string(REGEX MATCHALL "\n" newlines "${block}")
    list(LENGTH newlines block_lines)
    math(EXPR first_line "${line} + 1")
    math(EXPR consumed "${first_line} + ${block_lines}")

    set(name doc_${stem}_${n})
    set(dir ${CMAKE_CURRENT_BINARY_DIR}/snippets/${name})
    set(source "#line ${first_line} \"${doc}\"\n${block}\n")
    if(block MATCHES "int main")
      acausal_snippet_write(${dir}/main.cpp "${source}")
      add_executable(${name} ${dir}/main.cpp)
      target_link_libraries(${name} PRIVATE acausal)
      target_precompile_headers(${name} REUSE_FROM acausal_pch)
      set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${dir})
      add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DORIGIN=${where}:${line} -DPROGRAM=$<TARGET_FILE:${name}>
                                    -DWORK_DIR=${dir}/run -P ${CMAKE_CURRENT_SOURCE_DIR}/snippet_test.cmake)
    elseif(marker STREQUAL "<!-- snippet: compile -->")
      acausal_snippet_write(${dir}/fragment.cpp "${ACAUSAL_SNIPPET_PRELUDE}void ${name}() {\n${source}}\n")
      list(APPEND ACAUSAL_SNIPPET_FRAGMENTS ${dir}/fragment.cpp)
    elseif(marker MATCHES "^<!-- snippet: excerpt ([^ ]+) -->$")
      acausal_snippet_write(${dir}/excerpt.txt "${block}\n")
      add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DORIGIN=${where}:${line} -DEXCERPT=${dir}/excerpt.txt
                                    -DSOURCE=${CMAKE_SOURCE_DIR}/${CMAKE_MATCH_1}
                                    -P ${CMAKE_CURRENT_SOURCE_DIR}/snippet_test.cmake)
    else()
      add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DORIGIN=${where}:${line}
                                    -P ${CMAKE_CURRENT_SOURCE_DIR}/snippet_test.cmake)
    endif()
  endwhile()
endforeach()

# Six fragments per compiler run: they read the same headers and instantiate the same inline code.
add_library(doc_fragments OBJECT ${ACAUSAL_SNIPPET_FRAGMENTS})
target_link_libraries(doc_fragments PRIVATE acausal)
target_precompile_headers(doc_fragments REUSE_FROM acausal_pch)
set_target_properties(doc_fragments PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 6)
