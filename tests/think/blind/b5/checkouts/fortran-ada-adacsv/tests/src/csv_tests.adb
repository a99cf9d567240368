with AUnit.Reporter.Text;
with AUnit.Run;
with Csv_Suite;

procedure Csv_Tests is
   procedure Run is new AUnit.Run.Test_Runner (Csv_Suite.Suite);
   Reporter : AUnit.Reporter.Text.Text_Reporter;
begin
   Run (Reporter);
end Csv_Tests;
