EXEC tSQLt.NewTestClass 'InvoiceTests';
GO
CREATE PROCEDURE InvoiceTests.[test usp_GetOverdueInvoices ignores paid invoices]
AS
BEGIN
    EXEC tSQLt.FakeTable 'dbo.Invoice';
    INSERT INTO dbo.Invoice (InvoiceId, AccountId, IssuedOn, DueOn, Amount, PaidOn)
    VALUES (1, 7, '2024-01-01', '2024-01-31', 100, NULL),
           (2, 7, '2024-01-01', '2024-01-31', 100, '2024-01-20');
    CREATE TABLE #Actual (InvoiceId INT, AccountId INT, DueOn DATE, Amount DECIMAL(14,2));
    INSERT INTO #Actual EXEC dbo.usp_GetOverdueInvoices @AsOf = '2024-02-15';
    DECLARE @cnt INT = (SELECT COUNT(*) FROM #Actual);
    EXEC tSQLt.AssertEquals 1, @cnt;
END
GO
