CREATE TABLE [dbo].[Orders]
(
    [OrderId]     INT IDENTITY (1, 1) NOT NULL,
    [CustomerId]  INT               NOT NULL,
    [RegionCode]  CHAR (3)          NOT NULL,
    [Status]      VARCHAR (20)      NOT NULL CONSTRAINT [DF_Orders_Status] DEFAULT ('Open'),
    [OrderDate]   DATETIME2 (0)     NOT NULL,
    [Total]       DECIMAL (12, 2)   NOT NULL,
    CONSTRAINT [PK_Orders] PRIMARY KEY CLUSTERED ([OrderId] ASC)
);
