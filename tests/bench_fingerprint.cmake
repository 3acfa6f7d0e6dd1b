# ctest: runs `konobi bench` for one game and fails unless its fingerprint
# (the df-pn node count over the fixed positions, at the default 64 MiB table) is the one recorded in
# tests/bench_fingerprint.txt. Arguments: -DKONOBI=<binary> -DGAME=<konobi|gonnect>
# -DEXPECTED_FILE=<tests/bench_fingerprint.txt>.
file(STRINGS "${EXPECTED_FILE}" lines REGEX "^${GAME} [0-9]+$")
list(LENGTH lines found)
if(NOT found EQUAL 1)
  message(FATAL_ERROR "${EXPECTED_FILE} has no single line '${GAME} N'")
endif()
string(REGEX REPLACE "^${GAME} " "" expected "${lines}")

execute_process(COMMAND "${KONOBI}" bench --game ${GAME}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "konobi bench --game ${GAME} exited with ${rc}:\n${out}${err}")
endif()
if(NOT out MATCHES "df-pn nodes ([0-9]+) \\(fingerprint\\)")
  message(FATAL_ERROR "no fingerprint line in the output of konobi bench --game ${GAME}:\n${out}")
endif()
set(got "${CMAKE_MATCH_1}")
if(NOT got STREQUAL expected)
  message(FATAL_ERROR "${GAME} bench fingerprint is ${got}, expected ${expected} (tests/bench_fingerprint.txt).\n"
                      "If the search was meant to change, record the new number there and put a "
                      "'Bench: KONOBI/GONNECT' line in the commit message.\n${out}")
endif()
message(STATUS "${GAME} bench fingerprint ${got}, as expected")
