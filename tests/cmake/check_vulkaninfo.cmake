# vulkaninfo (Debian vulkan-tools) through the system loader on the coopvm ICD
# alone: it must exit 0, print no error, and list the device, its
# cooperative-matrix and cooperative-vector extensions, and its features.
set(ENV{VK_DRIVER_FILES} ${ICD})
execute_process(COMMAND ${VULKANINFO} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vulkaninfo exited with ${rc}")
endif()
# Without a display vulkaninfo says so, and that it skips surfaces: not errors of the driver.
string(REGEX REPLACE "[^\n]*XDG_RUNTIME_DIR[^\n]*" "" err_left "${err}")
string(REGEX MATCH "[^\n]*(ERROR|[Ee]rror)[^\n]*" bad "${err_left}${out}")
if(bad)
  message(FATAL_ERROR "vulkaninfo reported: ${bad}")
endif()
foreach(want "deviceName[ ]+= coopvm \\(CPU\\)"
             "deviceType[ ]+= PHYSICAL_DEVICE_TYPE_CPU"
             "VK_KHR_cooperative_matrix[ ]+: extension revision"
             "VK_NV_cooperative_matrix2[ ]+: extension revision"
             "VK_NV_cooperative_matrix_decode_vector[ ]+: extension revision"
             "VK_QCOM_cooperative_matrix_conversion[ ]+: extension revision"
             "VK_NV_cooperative_vector[ ]+: extension revision"
             "VK_EXT_cooperative_matrix_maintenance1[ ]+: extension revision"
             "VK_KHR_timeline_semaphore[ ]+: extension revision"
             "VkPhysicalDeviceVulkan13Features:"
             "synchronization2[ ]+= true"
             "subgroupSizeControl[ ]+= true"
             "shaderFloat16[ ]+= true"
             "bufferDeviceAddress[ ]+= true"
             "timelineSemaphore[ ]+= true"
             "maintenance4[ ]+= true"
             "queueFlags[ ]+= QUEUE_COMPUTE \\| QUEUE_TRANSFER")
  if(NOT out MATCHES "${want}")
    message(FATAL_ERROR "vulkaninfo's output lacks /${want}/")
  endif()
endforeach()
