select a.region_id, a.name, a.batch + b.batch as batches
from {{ ref('stg_1') }} a join {{ ref('stg_2') }} b using (region_id)
