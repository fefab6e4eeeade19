select region_id, name, 1 as batch from {{ ref('regions') }}
