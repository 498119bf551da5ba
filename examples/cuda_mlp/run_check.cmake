# ctest: cuda_mlp either trains (a GPU is present) or says plainly that none is and exits 4.
execute_process(COMMAND ${BIN} --steps 3 --log_every 1 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 4 AND err MATCHES "cuda_mlp: no CUDA GPU available")
  message(STATUS "no GPU here, as expected in CI: ${err}")
elseif(rc EQUAL 0 AND out MATCHES "cuda_mlp: steps=3 ")
  message(STATUS "trained on a GPU: ${out}")
else()
  message(FATAL_ERROR "cuda_mlp exited ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
