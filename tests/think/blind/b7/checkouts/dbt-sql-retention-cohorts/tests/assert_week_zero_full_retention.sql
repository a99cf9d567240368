select *
from {{ ref('rpt_retention_cohorts') }}
where weeks_since_signup = 0
  and retention_rate < 0.999
