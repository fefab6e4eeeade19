select region_id, name, 4 as batch from {{ ref('regions') }}
