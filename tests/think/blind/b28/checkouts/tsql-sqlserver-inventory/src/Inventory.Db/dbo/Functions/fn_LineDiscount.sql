CREATE FUNCTION [dbo].[fn_LineDiscount]
(
    @Quantity INT,
    @UnitPrice DECIMAL (12, 2)
)
RETURNS DECIMAL (12, 2)
AS
BEGIN
    RETURN CASE WHEN @Quantity >= 100 THEN @Quantity * @UnitPrice * 0.05
                ELSE 0 END;
END
