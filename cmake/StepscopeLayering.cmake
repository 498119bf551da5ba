# The layering check (tools/check_layering.py, docs/architecture.md "Layers").
#
# stepscope_write_layering_manifest(): called once, at the end of the top-level
# CMakeLists.txt, when every target exists. Writes ${CMAKE_BINARY_DIR}/layering/targets.json:
# each target of this project with its sources and the targets it links (as written,
# PUBLIC/PRIVATE kept apart), which the check reads to refuse an #include of a header whose
# target is not among what the including target links (the `gn check` rule). Written at
# configure time from CMake's own properties, so it exists after every configure (CMake's
# File API would answer only from the second configure on: its query must exist before).
#
# stepscope_add_layering_tests(): the ctest entries layering_check (the allow-list and the
# target rule over this tree and this build) and layering_check_self_test (planted
# violations, each of which must be reported); layering_tool_composition (no tool calls
# another tool's Compute*: tools/check_tool_composition.py) and its self-test. Without a Python 3 they still exist, and fail
# saying what is missing, so they never drop out of ctest's summary.

function(_stepscope_layering_json_list out)
  set(items "")
  foreach(item ${ARGN})
    string(REPLACE "\\" "\\\\" item "${item}")
    string(REPLACE "\"" "\\\"" item "${item}")
    list(APPEND items "\"${item}\"")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

function(_stepscope_layering_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(children DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(child ${children})
    _stepscope_layering_targets(${child} child_targets)
    list(APPEND targets ${child_targets})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(stepscope_write_layering_manifest)
  _stepscope_layering_targets(${PROJECT_SOURCE_DIR} targets)
  set(entries "")
  set(aliases "")
  foreach(target ${targets})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "UTILITY" OR type STREQUAL "GLOBAL_TARGET")
      continue()
    endif()
    set(fields "")
    foreach(property SOURCES INTERFACE_SOURCES LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      set(values "")
      # INTERFACE_LIBRARY targets allow only INTERFACE_* properties.
      if(NOT (type STREQUAL "INTERFACE_LIBRARY" AND NOT property MATCHES "^INTERFACE_"))
        get_target_property(values ${target} ${property})
        if(NOT values)
          set(values "")
        endif()
      endif()
      # Aliases (stepscope::gpu) resolve here, where CMake knows them.
      foreach(value ${values})
        string(REGEX REPLACE "^\\$<(LINK_ONLY|BUILD_INTERFACE):(.*)>$" "\\2" name "${value}")
        if(TARGET "${name}")
          get_target_property(aliased "${name}" ALIASED_TARGET)
          if(aliased)
            list(APPEND aliases "\"${name}\": \"${aliased}\"")
          endif()
        endif()
      endforeach()
      _stepscope_layering_json_list(json ${values})
      list(APPEND fields "\"${property}\": ${json}")
    endforeach()
    get_target_property(source_dir ${target} SOURCE_DIR)
    list(JOIN fields ", " fields)
    list(APPEND entries "    \"${target}\": {\"TYPE\": \"${type}\", \"SOURCE_DIR\": \"${source_dir}\", ${fields}}")
  endforeach()
  list(REMOVE_DUPLICATES aliases)
  list(JOIN entries ",\n" entries)
  list(JOIN aliases ", " aliases)
  file(WRITE ${CMAKE_BINARY_DIR}/layering/targets.json.tmp
    "{\n  \"source_dir\": \"${PROJECT_SOURCE_DIR}\",\n  \"binary_dir\": \"${CMAKE_BINARY_DIR}\",\n"
    "  \"generated_dir\": \"${CMAKE_BINARY_DIR}/gen\",\n  \"aliases\": {${aliases}},\n"
    "  \"targets\": {\n${entries}\n  }\n}\n")
  # Rewritten only when it changes, so nothing that depends on it rebuilds for nothing.
  file(COPY_FILE ${CMAKE_BINARY_DIR}/layering/targets.json.tmp ${CMAKE_BINARY_DIR}/layering/targets.json
       ONLY_IF_DIFFERENT)
  file(REMOVE ${CMAKE_BINARY_DIR}/layering/targets.json.tmp)
endfunction()

function(stepscope_add_layering_tests)
  set(script ${PROJECT_SOURCE_DIR}/tools/check_layering.py)
  # Debian's interpreter first (the check uses only the standard library).
  find_program(STEPSCOPE_LAYERING_PYTHON NAMES python3 HINTS /usr/bin NO_CACHE)
  if(STEPSCOPE_LAYERING_PYTHON)
    add_test(NAME layering_check
      COMMAND ${STEPSCOPE_LAYERING_PYTHON} ${script} --build-dir ${CMAKE_BINARY_DIR} ${PROJECT_SOURCE_DIR})
    add_test(NAME layering_check_self_test COMMAND ${STEPSCOPE_LAYERING_PYTHON} ${script} --self-test)
    # Tools compose through the model: no tool calls another tool's Compute*.
    set(composition ${PROJECT_SOURCE_DIR}/tools/check_tool_composition.py)
    add_test(NAME layering_tool_composition COMMAND ${STEPSCOPE_LAYERING_PYTHON} ${composition} ${PROJECT_SOURCE_DIR})
    add_test(NAME layering_tool_composition_self_test COMMAND ${STEPSCOPE_LAYERING_PYTHON} ${composition} --self-test)
  else()
    # A failure, not a skip: the layering rules are part of every test run.
    foreach(name layering_check layering_check_self_test layering_tool_composition layering_tool_composition_self_test)
      add_test(NAME ${name} COMMAND sh -c
        "echo 'layering: FAILED: no python3 found when CMake configured this build; install python3 (Debian: apt-get install python3) and re-run cmake' >&2; exit 1")
    endforeach()
  endif()
endfunction()
