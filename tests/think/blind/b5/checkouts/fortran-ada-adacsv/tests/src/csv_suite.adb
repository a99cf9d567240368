with Csv.Split_Tests;

package body Csv_Suite is
   function Suite return AUnit.Test_Suites.Access_Test_Suite is
      Result : constant AUnit.Test_Suites.Access_Test_Suite := new AUnit.Test_Suites.Test_Suite;
   begin
      Result.Add_Test (new Csv.Split_Tests.Test);
      return Result;
   end Suite;
end Csv_Suite;
