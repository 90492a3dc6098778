// Grid-stride indexing. A kernel walks each @Parallel dimension with a grid-stride loop on one
// launch axis (the innermost dimension on x, then y, then z), in 64-bit counters, so any launch
// configuration covers any size, including sizes past a launch dimension's limit.
#pragma once

namespace kiln {

__device__ __forceinline__ long long first_x() { return (long long) blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ long long first_y() { return (long long) blockIdx.y * blockDim.y + threadIdx.y; }
__device__ __forceinline__ long long first_z() { return (long long) blockIdx.z * blockDim.z + threadIdx.z; }

__device__ __forceinline__ long long stride_x() { return (long long) blockDim.x * gridDim.x; }
__device__ __forceinline__ long long stride_y() { return (long long) blockDim.y * gridDim.y; }
__device__ __forceinline__ long long stride_z() { return (long long) blockDim.z * gridDim.z; }

}  // namespace kiln
