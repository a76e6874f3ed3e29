// Test-only fault injection (built with -DGEMMTUNE_FAULT_INJECTION=ON; scripts/test does, release builds do not).
// GEMMTUNE_FAULTS="CALL:N:RESULT[,CALL:N:RESULT...]" makes the N-th call (1-based, counted over the process) of
// CALL return RESULT:
//   CALL    pipeline (vkCreateComputePipelines), allocate (vkAllocateMemory), submit (vkQueueSubmit),
//           wait (vkWaitForFences), query (vkGetQueryPoolResults)
//   RESULT  VK_ERROR_DEVICE_LOST, VK_ERROR_OUT_OF_DEVICE_MEMORY, VK_ERROR_OUT_OF_HOST_MEMORY, VK_TIMEOUT
// A failed pipeline, allocation or submission does nothing; a failed wait or query first lets the real call
// finish, so no work is left running behind the error the caller sees.
#pragma once

namespace gemmtune::vk {

/// Installs the injector over volk's device-level function pointers; call after every volkLoadDevice. Without
/// the build option it only refuses a set GEMMTUNE_FAULTS (usage error), so a test never passes by accident.
void install_fault_injection();

}  // namespace gemmtune::vk
