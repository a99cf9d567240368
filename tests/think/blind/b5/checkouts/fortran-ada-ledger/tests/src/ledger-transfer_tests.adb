with AUnit.Assertions; use AUnit.Assertions;
with Ledger.Accounts;  use Ledger.Accounts;

package body Ledger.Transfer_Tests is

   procedure Test_Balanced_Transfer (T : in out Test_Case'Class) is
      pragma Unreferenced (T);
      A : Account := Create ("cash", 100_00);
      B : Account := Create ("bank", 0);
   begin
      Transfer (From => A, To => B, Amount => 25_00);
      Assert (Balance (A) = 75_00, "source not debited");
      Assert (Balance (B) = 25_00, "target not credited");
   end Test_Balanced_Transfer;

   procedure Register_Tests (T : in out Test) is
      use AUnit.Test_Cases.Registration;
   begin
      Register_Routine (T, Test_Balanced_Transfer'Access, "Balanced transfer");
   end Register_Tests;

   function Name (T : Test) return AUnit.Message_String is
      pragma Unreferenced (T);
   begin
      return AUnit.Format ("Ledger.Transfer");
   end Name;

end Ledger.Transfer_Tests;
