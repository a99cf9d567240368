#ifndef LOOPFUSELITE_LOOPFUSELITE_H
#define LOOPFUSELITE_LOOPFUSELITE_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class LoopFuseLitePass : public PassInfoMixin<LoopFuseLitePass> {
public:
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM);
};
} // namespace llvm

#endif
