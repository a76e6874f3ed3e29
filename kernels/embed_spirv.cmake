# Writes a C header with a SPIR-V binary as `const uint32_t <VAR>[]` (little-endian words).
#   cmake -DINPUT=x.spv -DOUTPUT=x.h -DVAR=name -P embed_spirv.cmake
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" length)
math(EXPR remainder "${length} % 8")
if(length EQUAL 0 OR NOT remainder EQUAL 0)
  message(FATAL_ERROR "${INPUT}: not a whole number of 32-bit words")
endif()
# One regular-expression pass a step: per-word string appends made this step quadratic (about 2 s a 50 KB module).
string(REGEX REPLACE "([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])" "0x\\4\\3\\2\\1,"
       body "${hex}")
set(w "(0x[0-9a-f]+,)")
string(REGEX REPLACE "(${w}${w}${w}${w}${w}${w}${w}${w})" "\\1\n" body "${body}")  # 8 words a line
file(WRITE "${OUTPUT}.new" "// Generated from ${INPUT} by kernels/embed_spirv.cmake: do not edit.\n#pragma once\n#include <cstdint>\nconst uint32_t ${VAR}[] = {\n${body}\n};\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.new" "${OUTPUT}")
