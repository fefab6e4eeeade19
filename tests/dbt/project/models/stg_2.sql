select region_id, name, 2 as batch from {{ ref('regions') }}
