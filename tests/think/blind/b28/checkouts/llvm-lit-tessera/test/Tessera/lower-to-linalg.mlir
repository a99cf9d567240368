// RUN: tessera-opt %s --convert-tessera-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%[[ARG0:.*]]: tensor<4x8xf32>)
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[ARG0]] : tensor<4x8xf32>)
// CHECK: arith.mulf
func.func @scale(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tessera.scale %arg0 by 2.0 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
