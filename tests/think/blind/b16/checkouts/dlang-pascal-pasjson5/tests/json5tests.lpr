program json5tests;

{$mode objfpc}{$H+}

uses
  consoletestrunner, tscanner, tparser, tnumbers;

var
  App: TTestRunner;
begin
  DefaultFormat := fPlain;
  DefaultRunAllTests := True;
  App := TTestRunner.Create(nil);
  App.Initialize;
  App.Run;
  App.Free;
end.
