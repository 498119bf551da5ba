# stepscope_add_proto_library(<target> PROTOS a.proto b.proto [GRPC] [DEPS targets])
# Runs protoc (and the gRPC plugin when GRPC is given) with the repository root as the
# import path, so generated headers are included as "proto/stepscope/<name>.pb.h".
function(stepscope_add_proto_library target)
  cmake_parse_arguments(ARG "GRPC" "" "PROTOS;DEPS" ${ARGN})
  set(gen_dir ${CMAKE_BINARY_DIR}/gen)
  set(srcs)
  foreach(proto ${ARG_PROTOS})
    get_filename_component(abs ${proto} ABSOLUTE)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
    string(REGEX REPLACE "\\.proto$" "" stem ${rel})
    set(outs ${gen_dir}/${stem}.pb.cc ${gen_dir}/${stem}.pb.h)
    set(plugin_args)
    if(ARG_GRPC)
      find_program(GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)
      list(APPEND outs ${gen_dir}/${stem}.grpc.pb.cc ${gen_dir}/${stem}.grpc.pb.h)
      set(plugin_args --grpc_out=${gen_dir} --plugin=protoc-gen-grpc=${GRPC_CPP_PLUGIN})
    endif()
    add_custom_command(
      OUTPUT ${outs}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${gen_dir}
      COMMAND protobuf::protoc -I ${PROJECT_SOURCE_DIR} --cpp_out=${gen_dir} ${plugin_args} ${rel}
      DEPENDS ${abs} protobuf::protoc
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      COMMENT "protoc ${rel}")
    list(APPEND srcs ${outs})
  endforeach()
  add_library(${target} STATIC ${srcs})
  target_include_directories(${target} SYSTEM PUBLIC ${gen_dir})
  # A target linked with the property STEPSCOPE_STATIC_PROTOBUF set (the `stepscope`
  # executable) gets Debian's libprotobuf.a where there is one; every other target gets the
  # shared library (the Python module shares a process with libtorch, which loads it too).
  if(STEPSCOPE_PROTOBUF_STATIC_LIBRARY)
    target_link_libraries(${target} PUBLIC
      "$<IF:$<BOOL:$<TARGET_PROPERTY:STEPSCOPE_STATIC_PROTOBUF>>,${STEPSCOPE_PROTOBUF_STATIC_LIBRARY},protobuf::libprotobuf>"
      ${ARG_DEPS})
    # The headers come with protobuf::libprotobuf either way.
    target_include_directories(${target} SYSTEM PUBLIC $<TARGET_PROPERTY:protobuf::libprotobuf,INTERFACE_INCLUDE_DIRECTORIES>)
  else()
    target_link_libraries(${target} PUBLIC protobuf::libprotobuf ${ARG_DEPS})
  endif()
  if(ARG_GRPC)
    # The generated service stubs call into grpc++ (found in the top-level CMakeLists).
    target_link_libraries(${target} PUBLIC gRPC::grpc++)
  endif()
endfunction()
