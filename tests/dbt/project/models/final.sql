select r.region_id, r.n, s.s
from {{ ref('report_1') }} r cross join {{ ref('slow_4') }} s
