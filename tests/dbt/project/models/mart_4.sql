select a.region_id, a.name, a.batch + b.batch as batches
from {{ ref('stg_4') }} a join {{ ref('stg_5') }} b using (region_id)
