EXEC tSQLt.NewTestClass 'OrderTests';
GO
CREATE PROCEDURE OrderTests.[test usp_GetOpenOrders returns only open orders]
AS
BEGIN
    EXEC tSQLt.FakeTable 'dbo.Orders';
    INSERT INTO dbo.Orders (OrderId, CustomerId, RegionCode, Status, OrderDate, Total)
    VALUES (1, 10, 'EMA', 'Open',   '2024-01-02', 10.00),
           (2, 10, 'EMA', 'Closed', '2024-01-03', 20.00);

    CREATE TABLE #Actual (OrderId INT, CustomerId INT, RegionCode CHAR(3), OrderDate DATETIME2(0), Total DECIMAL(12,2));
    INSERT INTO #Actual EXEC dbo.usp_GetOpenOrders;

    DECLARE @cnt INT = (SELECT COUNT(*) FROM #Actual);
    EXEC tSQLt.AssertEquals @Expected = 1, @Actual = @cnt;
END
GO
CREATE PROCEDURE OrderTests.[test fn_LineDiscount gives 5 percent from 100 units]
AS
BEGIN
    DECLARE @d DECIMAL(12,2) = dbo.fn_LineDiscount(100, 2.00);
    EXEC tSQLt.AssertEquals @Expected = 10.00, @Actual = @d;
END
GO
