select region_id, name, 3 as batch from {{ ref('regions') }}
