; RUN: opt -load-pass-plugin=%shlibdir/LoopFuseLite%shlibext -passes=loop-fuse-lite -S %s | FileCheck %s

; Two adjacent, control-flow-equivalent counted loops over the same trip count
; should be fused into a single loop.

define void @adjacent(ptr %a, ptr %b, i64 %n) {
entry:
  br label %for.body

for.body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %for.body ]
  %arrayidx = getelementptr inbounds i32, ptr %a, i64 %i
  store i32 0, ptr %arrayidx, align 4
  %i.next = add nuw nsw i64 %i, 1
  %cmp = icmp slt i64 %i.next, %n
  br i1 %cmp, label %for.body, label %for.body2.preheader

for.body2.preheader:
  br label %for.body2

for.body2:
  %j = phi i64 [ 0, %for.body2.preheader ], [ %j.next, %for.body2 ]
  %arrayidx2 = getelementptr inbounds i32, ptr %b, i64 %j
  store i32 1, ptr %arrayidx2, align 4
  %j.next = add nuw nsw i64 %j, 1
  %cmp2 = icmp slt i64 %j.next, %n
  br i1 %cmp2, label %for.body2, label %exit

exit:
  ret void
}

; CHECK-LABEL: @adjacent(
; CHECK: for.body.fused:
; CHECK-NOT: for.body2:
; CHECK: ret void
