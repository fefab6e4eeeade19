select a.region_id, a.name, a.batch + b.batch as batches
from {{ ref('stg_5') }} a join {{ ref('stg_6') }} b using (region_id)
