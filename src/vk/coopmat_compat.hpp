// VK_KHR_cooperative_matrix, VK_KHR_shader_bfloat16 and VK_NV_cooperative_matrix2 declarations for system headers that
// predate them (Debian 12 ships Vulkan headers 1.3.239). Used only where the system headers lack them.
#pragma once

#include <volk.h>

#ifndef VK_KHR_cooperative_matrix
#define VK_KHR_cooperative_matrix 1
#define VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME "VK_KHR_cooperative_matrix"
typedef enum VkComponentTypeKHR {
  VK_COMPONENT_TYPE_FLOAT16_KHR = 0,
  VK_COMPONENT_TYPE_FLOAT32_KHR = 1,
  VK_COMPONENT_TYPE_FLOAT64_KHR = 2,
  VK_COMPONENT_TYPE_SINT8_KHR = 3,
  VK_COMPONENT_TYPE_SINT16_KHR = 4,
  VK_COMPONENT_TYPE_SINT32_KHR = 5,
  VK_COMPONENT_TYPE_SINT64_KHR = 6,
  VK_COMPONENT_TYPE_UINT8_KHR = 7,
  VK_COMPONENT_TYPE_UINT16_KHR = 8,
  VK_COMPONENT_TYPE_UINT32_KHR = 9,
  VK_COMPONENT_TYPE_UINT64_KHR = 10,
  VK_COMPONENT_TYPE_MAX_ENUM_KHR = 0x7FFFFFFF
} VkComponentTypeKHR;
typedef enum VkScopeKHR {
  VK_SCOPE_DEVICE_KHR = 1,
  VK_SCOPE_WORKGROUP_KHR = 2,
  VK_SCOPE_SUBGROUP_KHR = 3,
  VK_SCOPE_QUEUE_FAMILY_KHR = 5,
  VK_SCOPE_MAX_ENUM_KHR = 0x7FFFFFFF
} VkScopeKHR;
typedef struct VkCooperativeMatrixPropertiesKHR {
  VkStructureType sType;
  void* pNext;
  uint32_t MSize;
  uint32_t NSize;
  uint32_t KSize;
  VkComponentTypeKHR AType;
  VkComponentTypeKHR BType;
  VkComponentTypeKHR CType;
  VkComponentTypeKHR ResultType;
  VkBool32 saturatingAccumulation;
  VkScopeKHR scope;
} VkCooperativeMatrixPropertiesKHR;
typedef struct VkPhysicalDeviceCooperativeMatrixFeaturesKHR {
  VkStructureType sType;
  void* pNext;
  VkBool32 cooperativeMatrix;
  VkBool32 cooperativeMatrixRobustBufferAccess;
} VkPhysicalDeviceCooperativeMatrixFeaturesKHR;
typedef VkResult(VKAPI_PTR* PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)(VkPhysicalDevice, uint32_t*,
                                                                                   VkCooperativeMatrixPropertiesKHR*);
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR ((VkStructureType)1000506000)
#define VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR ((VkStructureType)1000506001)
#endif

#ifndef VK_KHR_shader_bfloat16
#define VK_KHR_shader_bfloat16 1
#define VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME "VK_KHR_shader_bfloat16"
typedef struct VkPhysicalDeviceShaderBfloat16FeaturesKHR {
  VkStructureType sType;
  void* pNext;
  VkBool32 shaderBFloat16Type;
  VkBool32 shaderBFloat16DotProduct;
  VkBool32 shaderBFloat16CooperativeMatrix;
} VkPhysicalDeviceShaderBfloat16FeaturesKHR;
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR ((VkStructureType)1000141000)
#endif

#ifndef VK_NV_cooperative_matrix2
#define VK_NV_cooperative_matrix2 1
#define VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME "VK_NV_cooperative_matrix2"
typedef struct VkPhysicalDeviceCooperativeMatrix2FeaturesNV {
  VkStructureType sType;
  void* pNext;
  VkBool32 cooperativeMatrixWorkgroupScope;
  VkBool32 cooperativeMatrixFlexibleDimensions;
  VkBool32 cooperativeMatrixReductions;
  VkBool32 cooperativeMatrixConversions;
  VkBool32 cooperativeMatrixPerElementOperations;
  VkBool32 cooperativeMatrixTensorAddressing;
  VkBool32 cooperativeMatrixBlockLoads;
} VkPhysicalDeviceCooperativeMatrix2FeaturesNV;
typedef struct VkPhysicalDeviceCooperativeMatrix2PropertiesNV {
  VkStructureType sType;
  void* pNext;
  uint32_t cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
  uint32_t cooperativeMatrixFlexibleDimensionsMaxDimension;
  uint32_t cooperativeMatrixWorkgroupScopeReservedSharedMemory;
} VkPhysicalDeviceCooperativeMatrix2PropertiesNV;
typedef struct VkCooperativeMatrixFlexibleDimensionsPropertiesNV {
  VkStructureType sType;
  void* pNext;
  uint32_t MGranularity;
  uint32_t NGranularity;
  uint32_t KGranularity;
  VkComponentTypeKHR AType;
  VkComponentTypeKHR BType;
  VkComponentTypeKHR CType;
  VkComponentTypeKHR ResultType;
  VkBool32 saturatingAccumulation;
  VkScopeKHR scope;
  uint32_t workgroupInvocations;
} VkCooperativeMatrixFlexibleDimensionsPropertiesNV;
typedef VkResult(VKAPI_PTR* PFN_vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV)(
    VkPhysicalDevice, uint32_t*, VkCooperativeMatrixFlexibleDimensionsPropertiesNV*);
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV ((VkStructureType)1000593000)
#define VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_FLEXIBLE_DIMENSIONS_PROPERTIES_NV ((VkStructureType)1000593001)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_PROPERTIES_NV ((VkStructureType)1000593002)
#endif

namespace gemmtune::vk {
/// VK_COMPONENT_TYPE_BFLOAT16_KHR, spelled out for headers that have the cooperative-matrix enum without it.
inline constexpr VkComponentTypeKHR kComponentTypeBFloat16 = VkComponentTypeKHR(1000141000);
}  // namespace gemmtune::vk
