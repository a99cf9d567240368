unit ttax;

{$mode objfpc}{$H+}

interface

uses
  fpcunit, testregistry, utax;

type
  TTestTax = class(TTestCase)
  published
    procedure TestStandardRate;
    procedure TestReducedRateRounding;
  end;

implementation

procedure TTestTax.TestStandardRate;
begin
  AssertEquals(20.00, VatFor(100.00, vrStandard), 0.001);
end;

procedure TTestTax.TestReducedRateRounding;
begin
  AssertEquals(0.83, VatFor(16.59, vrReduced), 0.001);
end;

initialization
  RegisterTest(TTestTax);
end.
