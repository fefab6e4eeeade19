select a.region_id, a.name, a.batch + b.batch as batches
from {{ ref('stg_2') }} a join {{ ref('stg_3') }} b using (region_id)
