CREATE PROCEDURE [dbo].[usp_GetOpenOrders]
    @CustomerId INT = NULL
AS
BEGIN
    SET NOCOUNT ON;

    SELECT o.OrderId, o.CustomerId, o.RegionCode, o.OrderDate, o.Total
    FROM dbo.Orders AS o
    WHERE o.Status = 'Open'
      AND (@CustomerId IS NULL OR o.CustomerId = @CustomerId)
    ORDER BY o.OrderDate;
END
