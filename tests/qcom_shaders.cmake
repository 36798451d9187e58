# The SPV_QCOM_cooperative_matrix_conversion unit-test shaders
# (tests/shaders/qcom_*.spvasm and .spv) are what tests/shaders/qcom_gen.py
# makes, assembled by this build's coopvm.
add_test(NAME qcom_shaders_fresh
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/shaders/qcom_gen.py
          --check $<TARGET_FILE:coopvm_cli>)
