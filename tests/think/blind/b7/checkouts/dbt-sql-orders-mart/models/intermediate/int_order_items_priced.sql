with order_items as (
    select * from {{ ref('stg_order_items') }}
),

products as (
    select * from {{ ref('stg_products') }}
)

select
    order_items.order_item_id,
    order_items.order_id,
    order_items.product_id,
    order_items.quantity,
    products.unit_price,
    order_items.quantity * products.unit_price as line_total
from order_items
left join products using (product_id)
