; RUN: opt -load-pass-plugin=%shlibdir/LoopFuseLite%shlibext -passes=loop-fuse-lite -S %s | FileCheck %s

; Loops with different trip counts must not be fused.
; CHECK-LABEL: @mismatch(
; CHECK: for.body:
; CHECK: for.body2:
define void @mismatch(ptr %a, i64 %n, i64 %m) {
entry:
  br label %for.body
for.body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %for.body ]
  %i.next = add nuw nsw i64 %i, 1
  %cmp = icmp slt i64 %i.next, %n
  br i1 %cmp, label %for.body, label %for.body2
for.body2:
  %j = phi i64 [ 0, %for.body ], [ %j.next, %for.body2 ]
  %j.next = add nuw nsw i64 %j, 1
  %cmp2 = icmp slt i64 %j.next, %m
  br i1 %cmp2, label %for.body2, label %exit
exit:
  ret void
}
