select a.region_id, a.name, a.batch + b.batch as batches
from {{ ref('stg_6') }} a join {{ ref('stg_7') }} b using (region_id)
