# SPDX-License-Identifier: MIT
# Runs at ctest time (included from a file iolab_add_test_batches writes): lists a GoogleTest program's tests
# and declares them to ctest in batches, each batch one run of the program over up to `size` tests of one
# suite. A test program under wine pays about 0.2 s to start and an ASan one 0.12 s, and with one ctest test per
# GoogleTest test that start-up was a quarter of the Windows pass. A batch's output names every test it ran, and
# a failing test fails its batch, which ctest then shows with that output.

set(run_batch "${CMAKE_CURRENT_LIST_DIR}/run_batch.cmake")

function(iolab_batches_impl)
  cmake_parse_arguments(arg "" "CMAKE;EXE;LIST_FILE;LABEL;SIZE;TIMEOUT;WORKING_DIRECTORY" "EMULATOR;FILTER;ENVIRONMENT"
                        ${ARGN})
  if(NOT EXISTS "${arg_EXE}")
    add_test("${arg_LABEL}.not-built" "${arg_EXE}")
    return()
  endif()
  # Made again when the program, this script or its caller (the build's settings) is newer than the list.
  if(NOT EXISTS "${arg_LIST_FILE}" OR "${arg_EXE}" IS_NEWER_THAN "${arg_LIST_FILE}"
     OR "${CMAKE_CURRENT_FUNCTION_LIST_FILE}" IS_NEWER_THAN "${arg_LIST_FILE}"
     OR "${CMAKE_CURRENT_LIST_FILE}" IS_NEWER_THAN "${arg_LIST_FILE}")
    set(filter_args)
    if(arg_FILTER)
      set(filter_args "--gtest_filter=-${arg_FILTER}")
    endif()
    execute_process(COMMAND ${arg_EMULATOR} "${arg_EXE}" --gtest_list_tests ${filter_args}
                    WORKING_DIRECTORY "${arg_WORKING_DIRECTORY}" OUTPUT_VARIABLE listing
                    ERROR_VARIABLE listing_errors RESULT_VARIABLE status TIMEOUT 120)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "${arg_EXE} --gtest_list_tests failed (${status}):\n${listing}\n${listing_errors}")
    endif()
    string(REPLACE "\r" "" listing "${listing}")
    string(REPLACE ";" "\\;" listing "${listing}")
    string(REPLACE "\n" ";" lines "${listing}")
    set(suites)
    set(suite "")
    foreach(line IN LISTS lines)
      # "  # GetParam() = ..." and "  # TypeParam = ..." follow a name: they describe it, they are not part of it.
      string(REGEX REPLACE " +#.*$" "" line "${line}")
      if(line MATCHES "^([^ ].*)\\.$")
        set(suite "${CMAKE_MATCH_1}")
        list(APPEND suites "${suite}")
        set("tests_${suite}")
      elseif(line MATCHES "^  ([^ ]+)$" AND suite)
        list(APPEND "tests_${suite}" "${suite}.${CMAKE_MATCH_1}")
      endif()
    endforeach()
    list(REMOVE_DUPLICATES suites)
    set(script "")
    foreach(suite IN LISTS suites)
      list(LENGTH "tests_${suite}" count)
      if(count EQUAL 0)
        continue()
      endif()
      math(EXPR batches "(${count} + ${arg_SIZE} - 1) / ${arg_SIZE}")
      set(index 0)
      set(first 0)
      while(first LESS count)
        math(EXPR index "${index} + 1")
        list(SUBLIST "tests_${suite}" ${first} ${arg_SIZE} members)
        list(JOIN members ":" filter)
        if(batches EQUAL 1)
          set(name "${suite}.*")
        else()
          set(name "${suite}.*#${index}")
        endif()
        list(LENGTH members size)
        # Through run_batch.cmake, which fails the batch unless the program ended well having run every test
        # it was given: a test that ends the process early would otherwise take the rest of its batch with it.
        string(APPEND script "add_test([==[${name}]==] [==[${arg_CMAKE}]==] [==[-DEXPECTED=${size}]==]"
                             " [==[-DEMULATOR=${arg_EMULATOR}]==] [==[-DEXE=${arg_EXE}]==]"
                             " [==[-DFILTER=${filter}]==] -P [==[${run_batch}]==])\n")
        string(APPEND script "set_tests_properties([==[${name}]==] PROPERTIES LABELS [==[${arg_LABEL}]==]"
                             " WORKING_DIRECTORY [==[${arg_WORKING_DIRECTORY}]==] TIMEOUT ${arg_TIMEOUT}")
        if(arg_ENVIRONMENT)
          string(APPEND script " ENVIRONMENT [==[${arg_ENVIRONMENT}]==]")
        endif()
        string(APPEND script ")\n")
        math(EXPR first "${first} + ${arg_SIZE}")
      endwhile()
    endforeach()
    file(WRITE "${arg_LIST_FILE}" "${script}")
  endif()
  include("${arg_LIST_FILE}")
endfunction()
