unit tnumbers;

{$mode objfpc}{$H+}

interface

uses fpcunit, testregistry, ujson5;

type
  TTestNumbers = class(TTestCase)
  published
    procedure TestHex;
    procedure TestLeadingDot;
    procedure TestInfinity;
  end;

implementation

procedure TTestNumbers.TestHex;
begin
  AssertEquals(255, ParseJson5('0xFF').AsInteger);
end;

procedure TTestNumbers.TestLeadingDot;
begin
  AssertEquals(0.5, ParseJson5('.5').AsFloat, 1e-12);
end;

procedure TTestNumbers.TestInfinity;
begin
  AssertTrue(IsInfinite(ParseJson5('-Infinity').AsFloat));
end;

initialization
  RegisterTest(TTestNumbers);
end.
