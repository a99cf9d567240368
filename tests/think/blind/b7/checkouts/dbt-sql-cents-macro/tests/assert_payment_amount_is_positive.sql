-- Refunds are modelled separately, so every payment must be positive.
select
    order_id,
    sum(amount) as total_amount
from {{ ref('stg_payments') }}
group by 1
having total_amount < 0
