select
    date_trunc(session_started_at, isoweek) as activity_week,
    count(distinct user_id) as active_users
from {{ ref('fct_session_summary') }}
group by 1
