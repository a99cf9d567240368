-- order_total on fct_orders must equal the sum of its priced line items
with items as (
    select order_id, sum(line_total) as items_total
    from {{ ref('int_order_items_priced') }}
    group by 1
)
select o.order_id, o.order_total, i.items_total
from {{ ref('fct_orders') }} o
join items i using (order_id)
where abs(o.order_total - i.items_total) > 0.01
