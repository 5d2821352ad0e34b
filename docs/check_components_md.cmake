# Fails when docs/components.md is not what the code generates (run `make docs`).
execute_process(COMMAND ${GENERATOR} OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "components_md failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${DOC} RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "docs/components.md is out of date with the code: run `make docs` and commit it")
endif()
