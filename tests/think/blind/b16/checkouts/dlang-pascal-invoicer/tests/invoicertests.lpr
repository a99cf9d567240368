program invoicertests;

{$mode objfpc}{$H+}

uses
  Classes, consoletestrunner, tinvoice, ttax;

var
  App: TTestRunner;
begin
  App := TTestRunner.Create(nil);
  App.Initialize;
  App.Title := 'invoicer tests';
  App.Run;
  App.Free;
end.
