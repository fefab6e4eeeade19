select a.region_id, a.name, a.batch + b.batch as batches
from {{ ref('stg_3') }} a join {{ ref('stg_4') }} b using (region_id)
