select m.region_id, count(*) as n from {{ ref('mart_2') }} m join {{ ref('mart_5') }} using (region_id) group by 1
