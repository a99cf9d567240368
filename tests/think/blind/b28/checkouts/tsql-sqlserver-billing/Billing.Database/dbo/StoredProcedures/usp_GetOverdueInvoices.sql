CREATE PROCEDURE [dbo].[usp_GetOverdueInvoices]
    @AsOf DATE
AS
BEGIN
    SET NOCOUNT ON;
    SELECT i.InvoiceId, i.AccountId, i.DueOn, i.Amount
    FROM dbo.Invoice AS i
    WHERE i.PaidOn IS NULL
      AND i.DueOn < @AsOf;
END
