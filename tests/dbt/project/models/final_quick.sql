select * from {{ ref('report_2') }} union all select * from {{ ref('report_3') }}
