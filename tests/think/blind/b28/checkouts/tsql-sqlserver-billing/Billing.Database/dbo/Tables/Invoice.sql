CREATE TABLE [dbo].[Invoice]
(
    [InvoiceId]   INT IDENTITY (1, 1) NOT NULL PRIMARY KEY,
    [AccountId]   INT             NOT NULL,
    [IssuedOn]    DATE            NOT NULL,
    [DueOn]       DATE            NOT NULL,
    [Amount]      DECIMAL (14, 2) NOT NULL,
    [PaidOn]      DATE            NULL
);
