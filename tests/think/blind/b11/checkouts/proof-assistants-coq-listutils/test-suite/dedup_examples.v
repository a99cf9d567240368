From ListUtils Require Import Dedup.
Require Import List. Import ListNotations.

(* executable examples: these must keep computing after changes to Dedup *)
Example dedup_ex1 : dedup Nat.eqb [1;2;1;3;2] = [1;2;3].
Proof. reflexivity. Qed.

Example dedup_ex2 : dedup Nat.eqb [] = [].
Proof. reflexivity. Qed.

Example dedup_ex3 : dedup Nat.eqb [4;4;4] = [4].
Proof. reflexivity. Qed.
