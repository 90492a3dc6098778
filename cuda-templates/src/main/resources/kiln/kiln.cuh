// Kiln's CUDA support headers: everything a generated .cu includes.
// Part of kiln-cuda-templates; generated sources include "kiln/kiln.cuh" and nothing else.
#pragma once

#include "kiln/math.cuh"
#include "kiln/index.cuh"
#include "kiln/reduce.cuh"
