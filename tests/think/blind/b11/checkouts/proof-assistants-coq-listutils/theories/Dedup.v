Require Import List Bool. Import ListNotations.

Section Dedup.
Variable A : Type.
Variable eqb : A -> A -> bool.

Fixpoint dedup (l : list A) : list A :=
  match l with
  | [] => []
  | x :: xs => x :: dedup (filter (fun y => negb (eqb x y)) xs)
  end.
End Dedup.
Arguments dedup {A} eqb l.
