with AUnit.Reporter.Text;
with AUnit.Run;
with Ledger_Suite;

procedure Ledger_Tests is
   procedure Runner is new AUnit.Run.Test_Runner_With_Status (Ledger_Suite.Suite);
   Reporter : AUnit.Reporter.Text.Text_Reporter;
   Status   : AUnit.Status;
   use type AUnit.Status;
begin
   Status := Runner (Reporter);
   if Status /= AUnit.Success then
      raise Program_Error with "tests failed";
   end if;
end Ledger_Tests;
