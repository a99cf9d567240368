# -*- Python -*-
import os
import lit.formats
from lit.llvm import llvm_config

config.name = "LoopFuse"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".ll"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.loopfuse_obj_root, "test")

llvm_config.use_default_substitutions()
config.substitutions.append(("%shlibdir", config.loopfuse_lib_dir))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
llvm_config.add_tool_substitutions(["opt"], [config.llvm_tools_dir])
