# SPDX-License-Identifier: Apache-2.0
# cmake -P viewer_bundle.cmake: build the browser viewer (viewer/) into a C
# source.  -DSRC=<repo>/viewer -DWORK=<dir for node_modules and the bundle>
# -DOUT=<view_bundle.c> -DNODE=... -DNPM=...  `npm ci` installs the pinned
# packages of viewer/package-lock.json into WORK, esbuild bundles
# viewer/src/main.js, node writes the bundle as a byte array.  Any failure
# (no node / npm, no network for npm ci) leaves an empty bundle and a
# warning: the library builds, and `cosrod view` says the viewer is missing.
function(empty_bundle why)
  message(WARNING "cosrod: the browser viewer is not built (${why}); `cosrod view` will say so. "
                  "Install nodejs and npm (tools/install-deps.sh) and rebuild.")
  file(WRITE ${OUT} "/* no viewer: ${why} */\n#include \"view_internal.h\"\n"
                    "const unsigned char cosrod_view_bundle[1] = {0};\nconst size_t cosrod_view_bundle_size = 0;\n"
                    "const char cosrod_view_bundle_id[] = \"\";\n")
endfunction()

if(NOT NODE OR NOT NPM)
  empty_bundle("node or npm not found")
  return()
endif()
file(MAKE_DIRECTORY ${WORK})
configure_file(${SRC}/package.json ${WORK}/package.json COPYONLY)
configure_file(${SRC}/package-lock.json ${WORK}/package-lock.json COPYONLY)
if(NOT EXISTS ${WORK}/node_modules/.package-lock.json OR
   ${SRC}/package-lock.json IS_NEWER_THAN ${WORK}/node_modules/.package-lock.json)
  execute_process(COMMAND ${NPM} ci --no-audit --no-fund --loglevel=error WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(NOT rc EQUAL 0)
    empty_bundle("npm ci failed in ${WORK}: ${log}")
    return()
  endif()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env NODE_PATH=${WORK}/node_modules
                  ${WORK}/node_modules/.bin/esbuild ${SRC}/src/main.js --bundle --minify --format=iife
                  --target=es2020 --log-level=warning --outfile=${WORK}/viewer.js
                RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  empty_bundle("esbuild failed: ${log}")
  return()
endif()
execute_process(COMMAND ${NODE} ${SRC}/tools/embed.mjs ${WORK}/viewer.js ${OUT} RESULT_VARIABLE rc ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  empty_bundle("embedding failed: ${log}")
endif()
